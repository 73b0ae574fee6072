// OnAirConsole — see DESIGN.md §2 for what this target holds.
