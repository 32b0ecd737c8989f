from kgcrawl.cli import main

main()
