# SPDX-License-Identifier: LGPL-2.1-or-later
# Samples every thread of a process: its state and its current syscall,
# aggregated by thread name. usage: sample.py PID SECONDS
import os, sys, time, collections
pid = int(sys.argv[1]); dur = float(sys.argv[2])
names = {0:'read',1:'write',7:'poll',16:'ioctl',24:'sched_yield',35:'nanosleep',202:'futex',230:'clock_nanosleep',232:'epoll_wait',271:'ppoll',9:'mmap',11:'munmap',10:'mprotect',28:'madvise'}
state = collections.defaultdict(collections.Counter)
nthreads = collections.Counter()
ctx0 = {}
def ctx(tid):
    v = n = 0
    try:
        for l in open(f'/proc/{pid}/task/{tid}/status'):
            if l.startswith('voluntary_ctxt_switches'): v = int(l.split()[1])
            if l.startswith('nonvoluntary_ctxt_switches'): n = int(l.split()[1])
    except OSError: pass
    return v, n
t_end = time.time() + dur; samples = 0
while time.time() < t_end:
    try: tids = os.listdir(f'/proc/{pid}/task')
    except OSError: break
    samples += 1
    for tid in tids:
        try:
            comm = open(f'/proc/{pid}/task/{tid}/comm').read().strip()
            st = open(f'/proc/{pid}/task/{tid}/stat').read().rsplit(')',1)[1].split()[0]
            sc = open(f'/proc/{pid}/task/{tid}/syscall').read().split()[0]
        except OSError: continue
        if tid not in ctx0: ctx0[tid] = (comm,) + ctx(tid)
        key = 'R' if st == 'R' else (names.get(int(sc), sc) if sc.lstrip('-').isdigit() else sc)
        state[comm][key] += 1
    time.sleep(0.01)
sw = collections.defaultdict(lambda: [0,0,0])
for tid,(comm,v0,n0) in ctx0.items():
    v,n = ctx(tid); sw[comm][0]+=1; sw[comm][1]+=max(v-v0,0); sw[comm][2]+=max(n-n0,0)
print(f'samples {samples}')
for comm, c in sorted(state.items(), key=lambda x: -sum(x[1].values())):
    tot = sum(c.values())
    print(f'{comm:18s} threads {sw[comm][0]:3d} volsw {sw[comm][1]:8d} invsw {sw[comm][2]:7d} ' + ' '.join(f'{k}:{100*v/tot:.0f}%' for k,v in c.most_common(6)))
