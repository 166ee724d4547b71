# live/live.mk
