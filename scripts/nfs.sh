# SPDX-License-Identifier: GPL-2.0-only
# The NFS server of make boot: nfs-ganesha on the host, serving a
# private export under $WORK/nfs to the guest.  Sourced after lib.sh,
# never run.
#
# Ganesha listens on 127.0.0.1:$NFS_PORT with NFSv4 only (a v4 server
# needs no rpcbind: nothing is registered, no system service is
# touched), in the foreground of a child process that nfs_stop ends by
# its pid.  The guest reaches it through QEMU's user-mode network,
# where the host is 10.0.2.2; slirp connects from unprivileged ports,
# which ganesha accepts (PrivilegedPort = false).

NFS_DIR=$WORK/nfs
nfs_pid=

# nfs_port_busy: something on this host accepts connections on
# 127.0.0.1:$NFS_PORT.
nfs_port_busy() {
	(exec 3<>"/dev/tcp/127.0.0.1/$NFS_PORT") 2>/dev/null
}

# nfs_start: start the server, or die saying why and what to run.
# Returns once it serves the export, with NFS_PORT set to its port.
# NFS_PORT=auto (the default) takes the first free port from 20490 on,
# and the next one if another boot took it first: boots of other WORK
# directories (a CI run beside a developer's make boot) do not collide.
# A port given by number is used or refused.
nfs_start() {
	local port
	command -v "$GANESHA" >/dev/null ||
		die "the NFS server $GANESHA is not installed (Debian: nfs-ganesha, nfs-ganesha-vfs)" \
			"run: make deps   (or boot without the NFS test: make boot NFS=0)"
	if [ "$NFS_PORT" != auto ]; then
		[[ $NFS_PORT =~ ^[0-9]+$ ]] && [ "$NFS_PORT" -gt 0 ] && [ "$NFS_PORT" -lt 65536 ] ||
			die "NFS_PORT=$NFS_PORT is not a port number" "use a number, or NFS_PORT=auto"
		if nfs_port_busy; then
			die "cannot start the NFS server: port $NFS_PORT on 127.0.0.1 is in use (another make boot, or another server)" \
				"wait for it, or use another port: make boot NFS_PORT=<port>   (or NFS=0, or NFS_PORT=auto)"
		fi
		nfs_try_start || die "cannot start the NFS server: port $NFS_PORT on 127.0.0.1 is in use" \
			"use another port: make boot NFS_PORT=<port>   (or NFS=0, or NFS_PORT=auto)" "log: $NFS_DIR/ganesha.log"
		return 0
	fi
	for ((port = 20490; port < 20590; port++)); do
		NFS_PORT=$port
		nfs_port_busy && continue
		nfs_try_start && return 0
	done
	die "cannot start the NFS server: no free port in 20490-20589 on 127.0.0.1" \
		"stop the other servers, or give one: make boot NFS_PORT=<port>   (or NFS=0)"
}

# nfs_try_start: start ganesha on $NFS_PORT.  1 if the port was taken
# meanwhile; dies on any other failure.
nfs_try_start() {
	local log=$NFS_DIR/ganesha.log conf=$NFS_DIR/ganesha.conf i
	rm -rf "$NFS_DIR/export" "$NFS_DIR/recovery"
	mkdir -p "$NFS_DIR/export" "$NFS_DIR/recovery"
	cat >"$conf" <<EOF
# Written by scripts/nfs.sh for make boot; rewritten at every boot.
NFS_CORE_PARAM {
	Bind_addr = 127.0.0.1;
	NFS_Port = $NFS_PORT;
	Protocols = 4;
	Enable_NLM = false;
	Enable_RQUOTA = false;
	Enable_UDP = false;
}
NFSv4 {
	RecoveryRoot = "$NFS_DIR/recovery";
	Graceless = true;
	Only_Numeric_Owners = true;
}
NFS_KRB5 { Active_krb5 = false; }
EXPORT {
	Export_Id = 1;
	Path = "$NFS_DIR/export";
	Pseudo = /export;
	Protocols = 4;
	Transports = TCP;
	Access_Type = RW;
	Squash = No_Root_Squash;
	SecType = sys;
	PrivilegedPort = false;
	FSAL { Name = VFS; }
}
LOG { Default_Log_Level = EVENT; }
EOF
	: >"$log"
	info NFS "nfs-ganesha on 127.0.0.1:$NFS_PORT, export $NFS_DIR/export"
	"$GANESHA" -F -f "$conf" -L "$log" -p "$NFS_DIR/ganesha.pid" -N NIV_EVENT </dev/null >>"$log" 2>&1 &
	nfs_pid=$!
	for ((i = 0; i < 100; i++)); do
		grep -q 'NFS SERVER INITIALIZED' "$log" && break
		kill -0 "$nfs_pid" 2>/dev/null || break
		sleep 0.1
	done
	if ! kill -0 "$nfs_pid" 2>/dev/null; then
		nfs_pid=
		grep -v ':DBUS :' "$log" | tail -n 5 >&2
		grep -q 'Address already in use' "$log" && return 1
		die "the NFS server $GANESHA stopped at start" "log: $log" "run as root; make deps installs it"
	fi
	if grep -q 'Failed to load FSAL\|No export entries found' "$log"; then
		grep 'FSAL\|export entries' "$log" | tail -n 3 >&2
		nfs_stop
		die "the NFS server has no export: its VFS backend is missing (Debian: nfs-ganesha-vfs)" \
			"run: make deps" "log: $log"
	fi
	if ! grep -q 'NFS SERVER INITIALIZED' "$log"; then
		nfs_stop
		die "the NFS server did not start within 10 s" "log: $log"
	fi
}

# nfs_stop: end the server started by nfs_start, if any (TERM, then
# KILL after 5 s).  Safe to call twice, and from an EXIT trap.
nfs_stop() {
	local i
	[ -n "$nfs_pid" ] || return 0
	kill "$nfs_pid" 2>/dev/null || true
	for ((i = 0; i < 50; i++)); do
		kill -0 "$nfs_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$nfs_pid" 2>/dev/null || true
	wait "$nfs_pid" 2>/dev/null || true
	nfs_pid=
}
