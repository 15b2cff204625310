"""rulelang: a declarative rules language for the All Fives / Five-Up domino family."""
