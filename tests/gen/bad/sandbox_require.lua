local os = require("os")
