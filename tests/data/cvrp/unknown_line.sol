Route #1: 1 2
Route #2: 3 4
Time 1.0
