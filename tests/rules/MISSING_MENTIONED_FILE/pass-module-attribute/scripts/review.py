TRIGGER = "/review"
