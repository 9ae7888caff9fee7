"""Stand-in for the cog package: BasePredictor and Input, as used in a cog predict.py."""


class BasePredictor:
    def setup(self):
        pass

    def predict(self, **kwargs):
        raise NotImplementedError


def Input(default=None, description=None, **kwargs):
    return default
