echo merged
