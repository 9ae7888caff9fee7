"""Stand-in for the bunch package (not installed here): a dict with attribute access."""


class Bunch(dict):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.__dict__ = self
