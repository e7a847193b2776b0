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

# A Linux package of the desktop app (.tar.xz with binary, icon and
# .desktop file), made with the fyne tool from the tools module.
package: setup
	go build -o bin/ ./cmd/desktop
	cd tools && go build -o ../bin/fyne fyne.io/tools/cmd/fyne
	cp FyneApp.toml bin/FyneApp.toml.keep
	./bin/fyne package -os linux --src cmd/desktop --exe bin/desktop --icon "$(CURDIR)/assets/icon.png" \
		--name "Proposal Desk" --app-id io.proposaldesk.desktop --app-version 0.1.0 --release
	mv bin/FyneApp.toml.keep FyneApp.toml
	mv -f *.tar.xz bin/ 2>/dev/null || true
