"""The compass written out from rules/aster.md, independently of the code under test."""

UNIT = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
CLOCKWISE = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
CORNERS = {"NE", "SE", "SW", "NW"}
