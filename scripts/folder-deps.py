#!/usr/bin/env python3
"""Folder dependencies inside one Swift module (Sources/CuratorCore by default).

Each top-level type (class, struct, enum, protocol, actor, typealias) belongs to
the folder of the file that declares it. A file depends on another folder when
it names one of that folder's types outside comments and string literals. The
script prints the folder graph, the pairs of folders that depend on each other,
and the strongly connected groups of folders (every cycle lies inside one).

    scripts/folder-deps.py [module dir] [--why A B]

--why A B lists the files of folder A and the types of folder B they name.
"""
import os
import re
import sys
from collections import defaultdict

DECL = re.compile(
    r"^(?:(?:public|package|internal|fileprivate|private|final|open|indirect|@\w+(?:\([^)]*\))?)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z]\w*)",
    re.M,
)
WORD = re.compile(r"\b[A-Z]\w*\b")


def strip(source):
    """Source without comments and string literals (multi-line ones too)."""
    source = re.sub(r'"""[\s\S]*?"""', '""', source)
    source = re.sub(r"/\*[\s\S]*?\*/", " ", source)
    source = re.sub(r"//[^\n]*", "", source)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)


def files(root):
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                yield os.path.relpath(folder, root).split(os.sep)[0], path


def graph(root):
    owner = {}
    texts = []
    for folder, path in files(root):
        with open(path, encoding="utf-8") as f:
            text = strip(f.read())
        texts.append((folder, path, text))
        for name in DECL.findall(text):
            owner.setdefault(name, folder)
    edges = defaultdict(lambda: defaultdict(set))  # folder -> folder -> {(file, type)}
    for folder, path, text in texts:
        for word in set(WORD.findall(text)):
            other = owner.get(word)
            if other and other != folder:
                edges[folder][other].add((os.path.relpath(path, root), word))
    return edges


def components(nodes, edges):
    """Tarjan's strongly connected components with more than one folder."""
    index, low, stack, on, result = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                result.append(sorted(group))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return result


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    why = None
    if "--why" in argv:
        i = argv.index("--why")
        why = argv[i + 1 : i + 3]
        args = [a for a in argv[1:i] if not a.startswith("--")]
    else:
        args = args[1:]
    root = args[0] if args else "Sources/CuratorCore"
    edges = graph(root)
    if why:
        for path, word in sorted(edges[why[0]][why[1]]):
            print(f"{path}: {word}")
        return 0
    nodes = set(edges) | {w for v in edges.values() for w in v}
    print("folder graph (folder -> folders whose types it names):")
    for v in sorted(nodes):
        print(f"  {v} -> {', '.join(sorted(edges.get(v, {}))) or '-'}")
    pairs = sorted((a, b) for a in edges for b in edges[a] if a < b and a in edges.get(b, {}))
    print(f"mutual pairs: {len(pairs)}")
    for a, b in pairs:
        print(f"  {a} <-> {b}  ({len(edges[a][b])} / {len(edges[b][a])} references)")
    groups = components(nodes, edges)
    print(f"cyclic groups: {len(groups)}")
    for group in groups:
        print(f"  {' '.join(group)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
