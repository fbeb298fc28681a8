# normalise.awk — turns `strace -e trace=memory,file,desc` output of
# tests/strace/driver into the canonical form of tests/strace/copybench.seq:
# only the lines between the driver's two access() markers; fds, addresses
# and paths replaced by the role they play (src, dst, map(src), map(dst));
# sizes equal to the source's as SIZE (SIZE-4 for copybench's last int);
# open flags reduced to the ones with a meaning for the copy (O_CLOEXEC,
# O_NOCTTY, O_LARGEFILE are dropped); malloc's brk dropped; a run of
# read(src)/write(dst) collapsed to `read/write*`; a failing call keeps its
# errno (`= -1 EXDEV`).
#   awk -v src=PATH -v dst=PATH -v size=BYTES -f normalise.awk TRACE
function role_fd(fd) { return (fd in fds) ? fds[fd] : "fd?" }
function role_addr(a) { return (a in maps) ? maps[a] : "map(?)" }
function num(n) {
	if (n == size) return "SIZE"
	if (n == size - 4) return "SIZE-4"
	if (n == 0) return "0"
	return "N"
}
function flags(f, out, n, a, i) {
	n = split(f, a, "|"); out = ""
	for (i = 1; i <= n; i++)
		if (a[i] != "O_CLOEXEC" && a[i] != "O_NOCTTY" && a[i] != "O_LARGEFILE")
			out = out (out == "" ? "" : "|") a[i]
	return out
}
function err(line,  m) {
	if (match(line, /= -1 [A-Z0-9]+/)) return " " substr(line, RSTART, RLENGTH)
	return ""
}
function emit(s) {
	if (s ~ /^(read\(src\)|write\(dst\))$/) { run++; return }
	flush(); print s
}
function flush() { if (run >= 2) print "read/write*"; else if (run == 1) print "read/write?"; run = 0 }
/access\("LRUTOP-STRACE-BEGIN"/ { on = 1; next }
/access\("LRUTOP-STRACE-END"/ { flush(); on = 0; next }
!on { next }
{
	sub(/^\[pid +[0-9]+\] /, ""); sub(/^[0-9]+ +/, "")
	name = $0; sub(/\(.*/, "", name)
	args = $0; sub(/^[a-z0-9_]+\(/, "", args)
	ret = $0; sub(/.*\) += /, "", ret); sub(/ .*/, "", ret)
	e = err($0)
	n = split(args, a, /, /)
	if (name == "brk") next
	if (name == "openat") {
		p = a[2]; gsub(/"/, "", p)
		r = p == src ? "src" : p == dst ? "dst" : p
		if (ret + 0 >= 0 && e == "") fds[ret] = r
		f = a[3]; sub(/\).*/, "", f)
		emit("openat(" r ", " flags(f) ")" e); next
	}
	if (name == "newfstatat" || name == "fstat") { emit("fstat(" role_fd(a[1] + 0) ")" e); next }
	if (name == "read" || name == "write") {
		c = a[n]; sub(/\).*/, "", c)
		s = name "(" role_fd(a[1] + 0) ")"
		# a lone write of a known size (mw_cp's whole map, mm's last int)
		if (name == "write" && (num(c) == "SIZE" || c + 0 == 4)) s = "write(dst, " (c + 0 == 4 ? "4" : "SIZE") ")"
		if (e != "") s = s e
		emit(s); next
	}
	if (name == "lseek") { w = a[3]; sub(/\).*/, "", w); emit("lseek(" role_fd(a[1] + 0) ", " num(a[2] + 0) ", " w ")" e); next }
	if (name == "mmap") {
		fd = a[5] + 0; r = role_fd(fd)
		if (e == "") maps[ret] = "map(" r ")"
		emit("mmap(" r ", " a[3] ", " a[4] ")" e); next
	}
	if (name == "munmap") { emit("munmap(" role_addr(a[1]) ")" e); next }
	if (name == "madvise" || name == "msync") { f = a[3]; sub(/\).*/, "", f); emit(name "(" role_addr(a[1]) ", " f ")" e); next }
	if (name == "fadvise64") { f = a[4]; sub(/\).*/, "", f); emit("fadvise64(" role_fd(a[1] + 0) ", " f ")" e); next }
	if (name == "ftruncate") { c = a[2]; sub(/\).*/, "", c); emit("ftruncate(" role_fd(a[1] + 0) ", " num(c + 0) ")" e); next }
	if (name == "fallocate") { emit("fallocate(" role_fd(a[1] + 0) ", " a[2] ", " num(a[3] + 0) ", " num(a[4] + 0) ")" e); next }
	if (name == "fsync" || name == "fdatasync" || name == "close") { c = a[1]; sub(/\).*/, "", c); r = role_fd(c + 0); emit(name "(" r ")" e); if (name == "close") delete fds[c + 0]; next }
	if (name == "copy_file_range") { emit("copy_file_range(" role_fd(a[1] + 0) ", " role_fd(a[3] + 0) ")" e); next }
	emit(name "(...)" e)
}
END { flush() }
