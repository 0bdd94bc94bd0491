#!/usr/bin/env bats
# A target whose login user needs a password for sudo, end to end against
# the real sudo(8) of this machine: a test user whose sudoers entry asks for
# a password, a stand-in ssh that runs the remote line as that user
# (helpers/ssh-as-user.sh), and the password typed on a pseudo-terminal
# (expect). bootab must ask for it, hand it to sudo on stdin only, and
# prove the probe then ran as uid 0.

setup_file() {
	if [ "$(id -u)" != 0 ]; then
		skip "needs root: creates a test user and a sudoers entry"
	fi
	for tool in sudo expect runuser setsid useradd chpasswd visudo; do
		command -v "$tool" > /dev/null || { echo "missing $tool (tools/debian-packages-test)" >&2; return 1; }
	done
	export SUDO_TEST_USER="bootab-sudo-$$"
	SUDO_TEST_PASSWORD=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	export SUDO_TEST_PASSWORD
	useradd -M -N -d / -s /bin/sh "$SUDO_TEST_USER"
	printf '%s:%s\n' "$SUDO_TEST_USER" "$SUDO_TEST_PASSWORD" | chpasswd
	export SUDO_TEST_SUDOERS="/etc/sudoers.d/bootab-sudo-$$"
	printf 'Defaults:%s lecture=never, passwd_tries=1\n%s ALL=(ALL:ALL) ALL\n' \
		"$SUDO_TEST_USER" "$SUDO_TEST_USER" > "$SUDO_TEST_SUDOERS.tmp"
	chmod 0440 "$SUDO_TEST_SUDOERS.tmp"
	visudo -cqf "$SUDO_TEST_SUDOERS.tmp"
	mv "$SUDO_TEST_SUDOERS.tmp" "$SUDO_TEST_SUDOERS"
}

teardown_file() {
	[ -n "${SUDO_TEST_SUDOERS:-}" ] && rm -f "$SUDO_TEST_SUDOERS" "$SUDO_TEST_SUDOERS.tmp"
	[ -n "${SUDO_TEST_USER:-}" ] && userdel "$SUDO_TEST_USER" 2> /dev/null
	return 0
}

setup() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	ln -s "$BATS_TEST_DIRNAME/helpers/ssh-as-user.sh" "$BATS_TEST_TMPDIR/bin/ssh"
	export PATH="$BATS_TEST_TMPDIR/bin:$PATH"
	export STANDIN_SSH_LOG="$BATS_TEST_TMPDIR/ssh.log"
	dest="$SUDO_TEST_USER@standin"
}

# type_password PASSWORD ARGS...: runs bootab ARGS on a pty, types PASSWORD
# at its sudo prompt; $output and $status as bats' run gives them.
type_password() {
	local password=$1
	shift
	cat > "$BATS_TEST_TMPDIR/type.exp" <<-'EOT'
	set timeout 120
	spawn -noecho {*}$argv
	expect {
		-ex "bootab: sudo password on $env(SUDO_TEST_DEST): " { send -- "$env(TYPED)\r" }
		timeout { puts "no password prompt"; exit 99 }
		eof { puts "bootab ended without asking"; catch wait r; exit [lindex $r 3] }
	}
	expect eof
	catch wait r
	exit [lindex $r 3]
	EOT
	TYPED="$password" SUDO_TEST_DEST="$dest" run expect -f "$BATS_TEST_TMPDIR/type.exp" -- "$BOOTAB" "$@"
}

@test "the sudo password typed on the terminal reaches sudo: the probe runs as uid 0" {
	sudo -k -n -u "$SUDO_TEST_USER" true 2> /dev/null || true
	# The user is no root and sudo -n refuses it: the password path is the only one.
	run runuser -u "$SUDO_TEST_USER" -- sudo -n true
	[ "$status" -ne 0 ]
	type_password "$SUDO_TEST_PASSWORD" snapshot --target "$dest" --json
	[ "$status" -eq 0 ]
	[[ "$output" == *'"boot_id": "'* ]]
	[[ "$output" == *'"kernel": "'"$(uname -r)"'"'* ]]
	# Never in an argv: the stand-in logged every ssh command line.
	[ -s "$STANDIN_SSH_LOG" ]
	! grep -qF "$SUDO_TEST_PASSWORD" "$STANDIN_SSH_LOG" || false
	grep -qF "'sudo' '-k' '-S' '-p' '' '--' " "$STANDIN_SSH_LOG"
	# Typed with echo off: the terminal never shows it.
	[[ "$output" != *"$SUDO_TEST_PASSWORD"* ]]
}

@test "a wrong sudo password: sudo refuses it and bootab says so" {
	type_password "not-$SUDO_TEST_PASSWORD" snapshot --target "$dest"
	[ "$status" -eq 2 ]
	[[ "$output" == *"bootab: sudo on '$dest' refused the password"* ]]
}

@test "sudo wants a password and no terminal can ask: bootab says which" {
	run "$BOOTAB" snapshot --target "$dest" < /dev/null
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: root is needed on '$dest': sudo -n wants a password and there is no terminal to ask (log in as root, or allow sudo without a password)" ]
}

# at_prompt KEYS CMD...: runs CMD on a pty; at bootab's sudo prompt, prints
# "core: SOFT HARD" (bootab's core size limit then, /proc/PID/limits) and
# sends KEYS; $output and $status as bats' run gives them.
at_prompt() {
	local keys=$1
	shift
	cat > "$BATS_TEST_TMPDIR/prompt.exp" <<-'EOT'
	set timeout 120
	spawn -noecho {*}$argv
	expect {
		-ex "bootab: sudo password on $env(SUDO_TEST_DEST): " {}
		timeout { puts "no password prompt"; exit 99 }
		eof { puts "bootab ended without asking"; catch wait r; exit [lindex $r 3] }
	}
	set pid [exec pgrep -n -s [exp_pid] -f $env(BOOTAB_PROC)]
	set limits [exec grep "^Max core file size" /proc/$pid/limits]
	puts "core: [lindex $limits 4] [lindex $limits 5]"
	send -- "$env(KEYS)"
	expect eof
	catch wait r
	exit [lindex $r 3]
	EOT
	# bootab's own process: under valgrind (make check-valgrind) its command
	# line names the binary, its name is valgrind's.
	BOOTAB_PROC="${BOOTAB_VALGRIND_BIN:-$BOOTAB}( |$)" \
		KEYS="$keys" SUDO_TEST_DEST="$dest" run expect -f "$BATS_TEST_TMPDIR/prompt.exp" -- "$@"
}

@test "no core dump while the sudo password is held: the core limit is 0 at the prompt" {
	# Cores allowed before: bootab turns them off itself.
	at_prompt "$SUDO_TEST_PASSWORD"$'\r' sh -c 'ulimit -c unlimited; exec "$0" "$@"' "$BOOTAB" snapshot --target "$dest" --json
	[ "$status" -eq 0 ]
	[[ "$output" == *"core: 0 unlimited"* ]]
	[[ "$output" == *'"boot_id": "'* ]]
}

@test "Ctrl-C at the sudo password prompt ends bootab at once, echo back on" {
	# A shell that outlives bootab's SIGINT reports its status and the terminal's echo.
	at_prompt $'\003' sh -c 'trap : INT; "$0" "$@"; echo "rc=$?"; stty -a | tr " " "\n" | grep -x -e echo -e -echo' \
		"$BOOTAB" snapshot --target "$dest"
	[[ "$output" == *"rc=130"* ]]
	[ "$(printf '%s\n' "$output" | tr -d '\r' | tail -1)" = echo ]
}

@test "Ctrl-D at the sudo password prompt: no password was given, said so" {
	at_prompt $'\004' "$BOOTAB" snapshot --target "$dest"
	[ "$status" -eq 2 ]
	[[ "$output" == *"bootab: root is needed on '$dest': no sudo password was given (end of input at the prompt)"* ]]
}
