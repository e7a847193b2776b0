# Sourced by the bench scripts. demo_server BINARY DATA_DIR PORT
# PROPOSALS starts a demo server in the background (its process ID in
# $pid) and returns when it answers. SERVER_FLAGS are added to serve's.
demo_server() {
	"$1" serve --demo --demo-proposals "$4" --data "$2" --addr "127.0.0.1:$3" ${SERVER_FLAGS:-} >"$2/server.log" 2>&1 &
	pid=$!
	i=0
	until [ -s "$2/demo.json" ] && curl -s -o /dev/null "http://127.0.0.1:$3/openapi.json"; do
		i=$((i + 1)); [ $i -lt 600 ] || { echo "server did not start" >&2; cat "$2/server.log" >&2; exit 1; }
		sleep 0.5
	done
}
