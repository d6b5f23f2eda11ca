Route #1: 1 2
Route #2: 3 x4
Cost 60
