import re,sys,os,glob
d=sys.argv[1]
files={os.path.basename(f)[:-3]:open(f).read() for f in glob.glob(d+'/*.rs')}
edges={k:set() for k in files}
for k,src in files.items():
    # strip test modules
    src=src.split('#[cfg(test)]')[0]
    for m in re.finditer(r'super::\{([^}]*)\}', src):
        for part in m.group(1).split(','):
            name=part.strip().split('::')[0].split(' ')[0]
            if name in files and name!=k: edges[k].add(name)
    for m in re.finditer(r'super::(\w+)', src):
        name=m.group(1)
        if name in files and name!=k: edges[k].add(name)
        elif name not in files and k!='mod' and name[0].isupper(): edges[k].add('mod')
for k in sorted(edges): print(k,'->',sorted(edges[k]))
# cycle detection
state={};cyc=[]
def dfs(n,path):
    state[n]=1
    for m in edges.get(n,()):
        if state.get(m)==1: cyc.append(path+[n,m])
        elif m not in state: dfs(m,path+[n])
    state[n]=2
for n in edges:
    if n not in state: dfs(n,[])
print('cycles:',cyc if cyc else 'none')
sys.exit(1 if cyc else 0)
