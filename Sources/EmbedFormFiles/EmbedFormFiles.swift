import PackagePlugin

/// Compiles the files of FormSchema's `Files/` (the built-in forms' fonts and logos) into it, as
/// base64 string literals: see Sources/embed-licence-texts/main.swift for why not `.embedInCode`.
@main
struct EmbedFormFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let files = [".ttf", ".png"].flatMap { module.sourceFiles(withSuffix: $0).map(\.url) }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInFormFiles+Embedded.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) form files in \(module.name)",
                executable: try context.tool(named: "embed-licence-texts").url,
                arguments: ["--files", output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
