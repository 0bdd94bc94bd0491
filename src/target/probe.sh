# bootab probe: who runs scripts here, and whether sudo works without a
# password. Prints "uid<TAB>N" and, for a user other than root,
# "sudo<TAB>ok", "sudo<TAB>password" (sudo -n refused) or "sudo<TAB>absent".
set -u
uid=$(id -u)
printf 'uid\t%s\n' "$uid"
if [ "$uid" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		if sudo -n true >/dev/null 2>&1; then
			printf 'sudo\tok\n'
		else
			printf 'sudo\tpassword\n'
		fi
	else
		printf 'sudo\tabsent\n'
	fi
fi
