"""The tuner's command line (python -m predictor.tune): bad input is said in one line."""
from predictor import tune


def test_a_tile_that_is_not_a_config_name_is_refused_before_any_work(capsys):
    assert tune.main(["--variant", "v3_twoblock_xcd", "--tiles", "bm128_bn128_w2x2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: not a canonical config name: 'bm128_bn128_w2x2_sk1'") and "Traceback" not in err


def test_picks_within_five_percent_of_the_runner_up_are_named_with_how_often_such_a_gap_held():
    best = {(1024, 1536, 7168): ("a", 100.0, 104.0), (1024, 576, 7168): ("b", 100.0, 120.0),
            (6144, 512, 7168): ("c", 50.0, None)}
    note = tune.close_calls(best)
    assert note.startswith("1 of 3 picks are predicted under 5% faster than the next candidate (1024x1536x7168)")
    assert "% at 0%-2% and " in note and "% at 2%-5% of pairs" in note
    assert tune.close_calls({(1024, 576, 7168): ("b", 100.0, 120.0)}) is None
