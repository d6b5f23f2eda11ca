Route #1: 1 2
Route #2: 3 9
Cost 60
