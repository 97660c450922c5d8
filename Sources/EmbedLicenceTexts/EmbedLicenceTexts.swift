import PackagePlugin

/// Compiles the licence texts of a module (its `.txt` files) into it, as string literals: see
/// Sources/embed-licence-texts/main.swift for why not `.embedInCode`.
@main
struct EmbedLicenceTexts: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let texts = module.sourceFiles(withSuffix: ".txt").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "LicenceTexts+Embedded.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(texts.count) licence texts in \(module.name)",
                executable: try context.tool(named: "embed-licence-texts").url,
                arguments: [output.path] + texts.map(\.path),
                inputFiles: texts,
                outputFiles: [output])
        ]
    }
}
