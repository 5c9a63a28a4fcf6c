kernel "k\n#include <evil>" { pattern = "for", range = { 4 }, body = "" }
