# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs a command; prints its wall time and CPU time (user + sys), seconds.
import resource, subprocess, sys, time
t = time.monotonic()
with open('/tmp/p.out', 'wb') as out, open('/tmp/p.err', 'wb') as err:
    rc = subprocess.call(sys.argv[1:], stdout=out, stderr=err)
wall = time.monotonic() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"rc {rc} wall {wall:.3f} s cpu {ru.ru_utime + ru.ru_stime:.3f} s")
