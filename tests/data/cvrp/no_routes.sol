
Cost 60
