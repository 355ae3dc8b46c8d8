/// The command-line reference, `docs/command-line.md`, made from the command
/// table as the man page is: each command's summary and its `--help`.
/// `segue --reference > docs/command-line.md` writes it; a test keeps the
/// checked-in page current, and another holds every document's commands and
/// options to it.
enum CommandReference {
    static var text: String {
        var page = """
        # The command line

        Every command of `segue`, with its options, as `segue COMMAND --help`
        prints it. Made from the tool's command table (`segue --reference >
        docs/command-line.md`; a test keeps this page current). Exit status: 0
        ok, 1 failure (a bad config, a failed validation), 2 a usage mistake.


        """
        page += Commands.all.map { "- [`segue \($0.name)`](#segue-\($0.name)): \($0.summary)" }.joined(separator: "\n") + "\n"
        for command in Commands.all {
            page += "\n## segue \(command.name)\n\n\(command.summary).\n\n```text\n\(command.help)\n```\n"
        }
        return page
    }
}
