"""Pictures (SVG) and text diagrams of boards, states and placements; reads models only."""
