"""Stand-in for matplotlib.animation: FuncAnimation calls the frame function for every frame,
as the notebook's HTML rendering of the animation does."""


class FuncAnimation:
    def __init__(self, fig, func, frames, interval=200, **kwargs):
        self.artists = [func(i) for i in frames]
