# Hong Wu — make play / make test bootstrap a local virtual environment on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test bench judge clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/hongwu $(ARGS)

test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python benchmarks/engine_speed.py
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python benchmarks/ai_speed.py
	SDL_AUDIODRIVER=dummy $(BIN)/python benchmarks/client_frames.py  # x11 when DISPLAY is set, else dummy
	$(BIN)/python benchmarks/net_roundtrip.py
	$(BIN)/python benchmarks/net_tables.py
	$(BIN)/python benchmarks/net_resume.py
	$(BIN)/python benchmarks/net_hostile.py
	$(BIN)/python benchmarks/net_zpy.py
	SDL_VIDEODRIVER=dummy $(BIN)/python benchmarks/career_speed.py
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python benchmarks/chat_panel.py
	$(BIN)/python benchmarks/basic_finish_speed.py

judge: $(STAMP)
	$(BIN)/python -m engine.judge

clean:
	rm -rf $(VENV) build *.egg-info
