# The two commands a new user needs: `make run` and `make test`. Both install what is
# missing first (scripts/setup.sh, quick once done).
PYTHON ?= python3
ARGS ?=
PYTEST_ARGS ?=
JOBS ?= auto

.PHONY: setup run test test-quick
setup:
	@PYTHON=$(PYTHON) bash scripts/setup.sh

run: setup
	$(PYTHON) eval/run.py $(ARGS)

# The whole suite (what CI runs), test files spread over every core (JOBS=0: in this one process),
# the longest first (tests/conftest.py).
test: setup
	$(PYTHON) -m pytest -q -n $(JOBS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

# The edit-test loop's tier: the tests tests/conftest.py marks quick.
test-quick: setup
	$(PYTHON) -m pytest -q -m quick -n $(JOBS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)
