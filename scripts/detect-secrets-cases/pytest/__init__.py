"""A stand-in for pytest that records what @pytest.mark.parametrize is
given, so detect-secrets' plugin tests can be imported and their cases
read without pytest installed (PyPI is out of reach here)."""


class _Mark:
    def parametrize(self, names, values, **_):
        def deco(fn):
            params = list(fn.__dict__.get('_params', [])) if hasattr(fn, '__dict__') else []
            params.append((names, list(values)))
            fn._params = params
            return fn
        return deco

    def __getattr__(self, _name):
        def deco(*args, **kwargs):
            if len(args) == 1 and callable(args[0]) and not kwargs:
                return args[0]
            return lambda fn: fn
        return deco


mark = _Mark()


def fixture(*args, **_):
    if len(args) == 1 and callable(args[0]):
        return args[0]
    return lambda fn: fn


def param(*values, **_):
    return values


class _Raises:
    def __enter__(self):
        return self

    def __exit__(self, *_):
        return True


def raises(*_, **__):
    return _Raises()
