# Proposal Desk. `make run` and `make test` each do all the set-up a fresh
# Debian 12 machine needs first.
.PHONY: setup test run build package

setup:
	./scripts/setup-debian.sh

test: setup
	./scripts/test.sh

build: setup
	go build -o bin/ ./cmd/...

run: setup
	./scripts/run.sh

# The release packages in bin/dist/: the Windows MSI and zip (a mingw
# cross build), the desktop and server .debs and the fyne tool's tar.
# The version is the VERSION file's.
package: setup
	./scripts/package.sh
