"""Read detect-secrets' plugin test cases (tests/plugins/*_test.py) into
JSON lines: {"plugin", "test", "name", "input", "value", "positive"}.

usage: python3 extract.py SRC OUT.jsonl

Each test module is imported with the pytest stand-in beside this file;
the cases are the products of the parametrize decorators on a test and
its class. A case is kept when its meaning is plain: a line or payload
and should_flag; the keyword plugin's line, file extension and expected
secret (the file is named for the extension, as the test names it); the
entropy plugins' format filled with a secret or a non-secret and
should_be_caught; a payload alone, which its test wants reported.
"""
import importlib.util
import inspect
import itertools
import json
import os
import sys

src, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, src)


def combos(fn, cls):
    params = list(getattr(cls, '_params', [])) + list(getattr(fn, '_params', []))
    rows = []
    for names, values in params:
        names = [n.strip() for n in names.split(',')] if isinstance(names, str) else list(names)
        rows.append([dict(zip(names, v if len(names) > 1 else (v,))) for v in values])
    for prod in itertools.product(*rows) if rows else []:
        case = {}
        for p in prod:
            case.update(p)
        yield case


def case_of(plugin, p):
    if 'should_flag' in p and ('payload' in p or 'line' in p):
        return p.get('payload', p.get('line')), None, p['should_flag'], 'config.txt'
    if plugin == 'keyword' and 'expected_secret' in p:
        ext = p['file_extension']
        return p['line'], p['expected_secret'], p['expected_secret'] is not None, 'mock_filename.' + ext if ext else 'mock_filename'
    if 'format' in p and 'should_be_caught' in p:
        secret = p['secret'] if p['should_be_caught'] else p['non_secret']
        return p['format'].format(secret=p['secret'], non_secret=p['non_secret']), secret, p['should_be_caught'], 'config.txt'
    if set(p) in ({'line'}, {'payload'}, {'file_content'}):
        return next(iter(p.values())), None, True, 'config.txt'
    return None


seen = set()
n = 0
with open(out, 'w') as w:
    plugins = os.path.join(src, 'tests', 'plugins')
    for fname in sorted(os.listdir(plugins)):
        if not fname.endswith('_test.py'):
            continue
        plugin = fname[:-len('_test.py')]
        spec = importlib.util.spec_from_file_location('ds_' + plugin, os.path.join(plugins, fname))
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except Exception as e:  # a module that needs more than the stand-in
            print(f'detect-secrets-cases: {fname} not read: {e}', file=sys.stderr)
            continue
        tests = []
        for name, obj in vars(mod).items():
            if inspect.isclass(obj) and obj.__module__ == mod.__name__:
                for mname, m in vars(obj).items():
                    f = m.__func__ if isinstance(m, (staticmethod, classmethod)) else m
                    if callable(f) and mname.startswith('test'):
                        tests.append((mname, f, obj))
            elif callable(obj) and name.startswith('test'):
                tests.append((name, obj, None))
        for tname, f, cls in tests:
            for p in combos(f, cls):
                c = case_of(plugin, p)
                if c is None or not isinstance(c[0], str):
                    continue
                text, value, positive, filename = c
                key = (filename, text, bool(positive))
                if key in seen:
                    continue
                seen.add(key)
                w.write(json.dumps({'plugin': plugin, 'test': tname, 'name': filename, 'input': text,
                                    'value': value if isinstance(value, str) else None, 'positive': bool(positive)}) + '\n')
                n += 1
print(f'detect-secrets-cases: {n} cases in {out}', file=sys.stderr)
