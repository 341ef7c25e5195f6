import KeywardCLI

KeywardCLI.runAsMain()
