# The two commands a new user needs: `make run` and `make test`. Both install what is
# missing first (scripts/setup.sh, quick once done).
PYTHON ?= python3
ARGS ?=
PYTEST_ARGS ?=

.PHONY: setup run test
setup:
	@PYTHON=$(PYTHON) bash scripts/setup.sh

run: setup
	$(PYTHON) eval/run.py $(ARGS)

test: setup
	$(PYTHON) -m pytest -q $(PYTEST_ARGS)
