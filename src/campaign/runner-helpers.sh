now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
# tick: T, the box's clock in hundredths of a second, read without a fork
# (/proc/uptime, whose fraction has two digits); date's seconds without it.
tick() {
	if read -r _u _ < /proc/uptime 2> /dev/null && [ "${_u#*.}" != "$_u" ]; then
		T=$((${_u%.*} * 100 + 1${_u#*.} - 100))
	else
		T=$(($(date +%s) * 100))
	fi
}
# wake_watchers: a newline to each run-watch.sh waiting on this run (its
# fifo watch.PID.tmp), opened read-write so that none ever blocks.
wake_watchers() {
	for _w in watch.*.tmp; do
		[ -p "$_w" ] && { printf '\n' 1<> "$_w"; } 2> /dev/null
	done
	return 0
}
status() { printf '%s\n' "$*" > status.tmp && mv status.tmp status; printf '%s\n' "$*" >> progress; wake_watchers; }
record() { printf '%s\n' "$*" >> results; }

gpu_busy() {
	busy=0
	for f in /sys/class/drm/card*/device/gpu_busy_percent; do
		[ -r "$f" ] || continue
		v=$(head -c 16 "$f" 2>/dev/null) || continue
		case $v in '' | *[!0-9]*) continue ;; esac
		[ "$v" -gt "$busy" ] && busy=$v
	done
	if command -v nvidia-smi >/dev/null 2>&1; then
		for v in $(nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits 2>/dev/null); do
			case $v in '' | *[!0-9]*) continue ;; esac
			[ "$v" -gt "$busy" ] && busy=$v
		done
	fi
	echo "$busy"
}

# idle_gate ROW: wait until the box is idle; records the wait.
idle_gate() {
	status "gate $1"
	tick
	gate_start=$T
	n=0
	while :; do
		load=$(cut -d ' ' -f 1 /proc/loadavg)
		gpu=$(gpu_busy)
		if awk -v l="$load" -v g="$gpu" -v ml="$IDLE_LOAD" -v mg="$IDLE_GPU" 'BEGIN { exit !(l + 0 < ml + 0 && g + 0 < mg + 0) }'; then
			n=$((n + 1))
		else
			n=0
		fi
		sleep "$IDLE_INTERVAL"
		[ "$n" -ge "$IDLE_CHECKS" ] && break
		tick
		if [ "$IDLE_TIMEOUT" -gt 0 ] && [ $(((T - gate_start) / 100)) -ge "$IDLE_TIMEOUT" ]; then
			record "gate $1 timeout $(((T - gate_start) / 100)) $((T - gate_start))"
			return 1
		fi
	done
	tick
	record "gate $1 ok $(((T - gate_start) / 100)) $((T - gate_start))"
}

# run_rep ROW REP TIMEOUT USER COMMAND: one rep, as USER (empty: as we are).
run_rep() {
	row=$1 rep=$2 limit=$3 user=$4 command=$5
	[ -n "${me-}" ] || me=$(id -un)
	if [ -z "$user" ] || [ "$user" = "$me" ]; then
		set -- sh -c "$command"
	else
		set -- sudo -n -u "$user" sh -c "$command"
	fi
	if command -v timeout >/dev/null 2>&1; then
		set -- timeout "$limit" "$@"
	fi
	rep_start=$(now)
	tick
	rep_t=$T
	"$@" > "$row.$rep.out" 2> "$row.$rep.err" < /dev/null
	rc=$?
	tick
	rep_t=$((T - rep_t))
	record "rep $row $rep $rc $rep_start $(now) $((rep_t / 100)) $rep_t"
	printf 'rep %s %s %s %s\n' "$row" "$rep" "$rc" "$((rep_t / 100))" >> progress
	wake_watchers
}
