# Proposal Desk. `make run` and `make test` each do all the set-up a fresh
# Debian 12 machine needs first.
.PHONY: setup test run build

setup:
	./scripts/setup-debian.sh

test: setup
	./scripts/test.sh

build: setup
	go build -o bin/ ./cmd/...

run: setup
	./scripts/run.sh
