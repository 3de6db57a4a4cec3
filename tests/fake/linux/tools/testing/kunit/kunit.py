# Fake kunit.py: "parse LOG" fails when LOG has a "not ok" line.
import sys
log = open(sys.argv[2], errors="replace").read()
bad = "not ok" in log
print("Testing complete. Ran %d tests: %s" % (log.count("ok "), "failed" if bad else "passed"))
sys.exit(1 if bad else 0)
