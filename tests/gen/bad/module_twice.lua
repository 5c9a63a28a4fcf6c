module { name = "a" }
module { name = "b" }
