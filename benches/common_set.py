#!/usr/bin/env python3
"""The corpus files every peer accepts, and pddlc's ratio to a peer in CPU seconds.

benches/peers.sh runs ../shared/perf/perf.py for each peer over the whole corpus; this script
reads those runs' records (one JSON line per file) and:

  common_set.py list CORPUS.tsv RECORDS.jsonl... --out COMMON.tsv
      writes the lines of CORPUS.tsv (corpus.py's KIND<TAB>FILE<TAB>DOMAIN list) whose file
      every record set accepted: the common set, as perf.py's --list reads it;
  common_set.py ratio PEER.json PDDLC.json
      prints the peer's and pddlc's seconds on the same list, side by side: the peer's CPU
      (time.process_time around each call in its worker, the interpreter's start excluded) and
      its wall time (perf.py's `seconds`), pddlc's CPU (user + sys of its one process, start-up
      included), and the ratios.

Standard library only.
"""
import json
import sys


def accepted(path):
    """The files a run accepted, and how many it saw (not counting those it never reached)."""
    ok, seen = set(), 0
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if 'id' not in record or 'ok' not in record:
                continue
            seen += 1
            if record['ok']:
                ok.add(record['id'])
    return ok, seen


def common_list(corpus, records, out):
    sets = []
    for path in records:
        ok, seen = accepted(path)
        print(f'{path}: {len(ok)} of {seen} accepted', file=sys.stderr)
        sets.append(ok)
    common = set.intersection(*sets) if sets else set()
    kept = 0
    with open(corpus) as f, open(out, 'w') as o:
        for line in f:
            fields = line.rstrip('\n').split('\t')
            if len(fields) >= 2 and fields[1] in common:
                o.write(line)
                kept += 1
    print(f'common set: {kept} files, written to {out}', file=sys.stderr)


def ratio(peer_summary, pddlc_summary):
    peer = json.load(open(peer_summary))
    pddlc = json.load(open(pddlc_summary))
    peer_cpu, peer_wall, ours = peer['cpu_s'], peer['seconds'], pddlc['seconds']
    print(f"{peer['tool']}: {peer['items']} items, {peer['MB']} MB, "
          f"CPU {peer_cpu:.3f} s, wall {peer_wall:.3f} s (failures {peer['failures']})")
    print(f"{pddlc['tool']}: {pddlc['items']} items, {pddlc['MB']} MB, CPU {ours:.3f} s, "
          f"peak RSS {pddlc.get('peak_rss_MB')} MB (failures {pddlc['failures']})")
    if ours:
        print(f"ratio, CPU to CPU: {peer_cpu / ours:.2f}x; perf.py's (peer wall to pddlc CPU): "
              f"{peer_wall / ours:.2f}x")


def main(argv):
    if len(argv) >= 3 and argv[0] == 'list' and '--out' in argv:
        at = argv.index('--out')
        common_list(argv[1], argv[2:at], argv[at + 1])
    elif len(argv) == 3 and argv[0] == 'ratio':
        ratio(argv[1], argv[2])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
