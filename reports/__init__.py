"""Reports that read what the other layers produce: the offline gfx942 report (reports/offline/),
the comparison and charts of report CSVs (compare.py, plots.py) and the predictor judged on whole
public submissions (validation.py)."""
