from sejury.cli import main

main()
