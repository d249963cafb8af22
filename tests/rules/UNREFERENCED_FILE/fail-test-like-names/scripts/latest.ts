echo latest
