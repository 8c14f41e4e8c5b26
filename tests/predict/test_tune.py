"""The tuner's command line (python -m eval.predict.tune): bad input is said in one line."""
from eval.predict import tune


def test_a_tile_that_is_not_a_config_name_is_refused_before_any_work(capsys):
    assert tune.main(["--variant", "v3_twoblock_xcd", "--tiles", "bm128_bn128_w2x2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: not a canonical config name: 'bm128_bn128_w2x2_sk1'") and "Traceback" not in err
