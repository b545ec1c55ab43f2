programs := ch4
needs := sm_75
libs := -lcublas
headline := tile2d
lab := Blocktiling kernel body
