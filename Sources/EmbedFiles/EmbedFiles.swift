import PackagePlugin

/// Compiles every file of a module's folder that is not Swift (forms, fonts, logos, the static
/// site, templates) into it, as base64 string literals in `EmbeddedFiles`: see
/// Sources/embed-licence-texts/main.swift for why not `.embedInCode`.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let files = module.sourceFiles.filter { $0.type != .source && $0.type != .header }.map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) files in \(module.name)",
                executable: try context.tool(named: "embed-licence-texts").url,
                arguments: ["--files", output.path, module.directoryURL.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
