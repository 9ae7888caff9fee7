"""Stand-in for the unidecode package: the text here is plain ASCII already."""


def unidecode(string):
    return string.encode('ascii', 'ignore').decode('ascii')
