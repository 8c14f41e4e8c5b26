# A file of the submission's own named eval.py, as the #3 finisher's repository has (its local
# evaluator). The capture must never import it in place of the harness's eval package.
raise ImportError("the submission's own eval.py was imported in place of the harness's eval package")
