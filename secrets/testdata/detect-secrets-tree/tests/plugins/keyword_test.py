# Shaped as detect-secrets' plugin tests are (tests/plugins/*_test.py):
# parametrize on a class and on its methods, and a module-level function.
import pytest


@pytest.mark.parametrize('payload, should_flag', [('line one', True), ('line two', False)])
class TestSample:
    @pytest.mark.parametrize('extra', ['a', 'b'])
    def test_analyze(self, payload, should_flag, extra):
        pass

    @staticmethod
    @pytest.mark.parametrize('line', ['alone'])
    def test_alone(line):
        pass


@pytest.mark.parametrize(
    'file_extension, line, expected_secret',
    [('go', 'name := value', 'value'), (None, 'name = nothing', None)],
)
def test_keyword(file_extension, line, expected_secret):
    pass
