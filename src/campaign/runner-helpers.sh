# tick: T, the box's clock in hundredths of a second, read without a fork
# (/proc/uptime, whose fraction has two digits); date's seconds without it.
tick() {
	if read -r _u _ < /proc/uptime 2> /dev/null && [ "${_u#*.}" != "$_u" ]; then
		T=$((${_u%.*} * 100 + 1${_u#*.} - 100))
	else
		T=$(($(date +%s) * 100))
	fi
}
# clock_record: the box's clock once, "clock T EPOCH" (tick, then date's
# seconds since the epoch; "-" when date gives none): every later time is
# recorded as a tick alone, and bootab puts it in UTC as EPOCH + (T' - T)
# / 100 seconds. Where tick reads date (no fraction in /proc/uptime) the
# same sum holds.
clock_record() {
	tick
	_e=$(date -u +%s) || _e=-
	case $_e in '' | *[!0-9]*) _e=- ;; esac
	record "clock $T $_e"
}
# wake_watchers: a newline to each run-watch.sh waiting on this run (its
# fifo watch.PID.tmp), opened read-write so that none ever blocks.
wake_watchers() {
	for _w in watch.*.tmp; do
		[ -p "$_w" ] && { printf '\n' 1<> "$_w"; } 2> /dev/null
	done
	return 0
}
# status TEXT: the run's state in DIR/status (written in place, a handful
# of bytes: a reader between the truncation and the write sees it empty,
# and the watch then follows progress, which has every line; "done" goes
# through status.tmp and mv so that a finished run always says so) and a
# line of progress, its watchers woken.
status() {
	if [ "$*" = 'done' ]; then
		printf '%s\n' "$*" > status.tmp && mv status.tmp status
	else
		printf '%s\n' "$*" > status
	fi
	printf '%s\n' "$*" >> progress
	wake_watchers
}
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

# energy_record ROW REP before|after: one record of each RAPL zone of the
# powercap tree under POWERCAP (Documentation/power/powercap/powercap.rst:
# a zone is a directory with energy_uj, its name and the counter's
# wraparound, max_energy_range_uj): "energy ROW REP WHEN ZONE NAME UJ MAX",
# "-" for what cannot be read. energy_uj is root's alone on most kernels
# (0400): read as we are, else through sudo -n. No zone: "energy ROW REP
# none".
energy_record() {
	_found=
	for _z in "$POWERCAP"/*; do
		[ -e "$_z/energy_uj" ] || continue
		_found=y
		{ read -r _n < "$_z/name"; } 2>/dev/null || _n=-
		{ read -r _m < "$_z/max_energy_range_uj"; } 2>/dev/null || _m=-
		if ! { read -r _e < "$_z/energy_uj"; } 2>/dev/null; then
			_e=$(sudo -n cat "$_z/energy_uj" 2>/dev/null) || _e=-
		fi
		record "energy $1 $2 $3 ${_z##*/} ${_n:--} ${_e:--} ${_m:--}"
	done
	[ -n "$_found" ] || record "energy $1 $2 none"
}

# run_rep ROW REP TIMEOUT USER COMMAND [EVENTS [system [energy]]]: one rep,
# as USER (empty: as we are). With EVENTS the rep runs under perf stat -j,
# its counters in ROW.REP.perf; perf runs as we do (root counts the
# kernel's share too) around the switch to USER, and with "system" counts
# the box. With "energy" the RAPL zones are read just before and after.
run_rep() {
	row=$1 rep=$2 limit=$3 user=$4 command=$5 events=${6-} scope=${7-} energy=${8-}
	[ -z "$user" ] || [ -n "${me-}" ] || me=$(id -un)
	if [ -z "$user" ] || [ "$user" = "$me" ]; then
		set -- sh -c "$command"
	else
		set -- sudo -n -u "$user" sh -c "$command"
	fi
	if [ -n "$events" ]; then
		if [ -z "${perf_found-}" ]; then
			if command -v perf >/dev/null 2>&1; then perf_found=yes; else perf_found=no; fi
		fi
		if [ "$perf_found" = no ]; then
			record "counters $row $rep no-perf"
		elif [ "$scope" = system ]; then
			set -- perf stat -j -o "$row.$rep.perf" -a -e "$events" -- "$@"
		else
			set -- perf stat -j -o "$row.$rep.perf" -e "$events" -- "$@"
		fi
	fi
	if command -v timeout >/dev/null 2>&1; then
		set -- timeout "$limit" "$@"
	fi
	[ -z "$energy" ] || energy_record "$row" "$rep" before
	tick
	rep_start=$T
	"$@" > "$row.$rep.out" 2> "$row.$rep.err" < /dev/null
	rc=$?
	tick
	rep_t=$((T - rep_start))
	[ -z "$energy" ] || energy_record "$row" "$rep" after
	tick
	record "rep $row $rep $rc $rep_start $T $((rep_t / 100)) $rep_t"
	printf 'rep %s %s %s %s\n' "$row" "$rep" "$rc" "$((rep_t / 100))" >> progress
	wake_watchers
}
