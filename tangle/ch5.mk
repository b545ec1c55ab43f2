programs := ch5
needs := sm_75
libs := -lcublas
headline := remap2d
lab := Load the tiles with a flat thread index
