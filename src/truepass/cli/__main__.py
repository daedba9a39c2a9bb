from truepass.cli import main

main()
