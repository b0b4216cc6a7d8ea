/// Every built-in scene, in the order `swell scenes` lists them.
public let builtInScenes: [SceneDescriptor] = [
    WaveScene.descriptor,
    RipplesScene.descriptor,
    ElasticScene.descriptor,
    WaveformScene.descriptor,
    FlowScene.descriptor,
    SlideshowScene.descriptor,
    ButtonScene.descriptor,
    ButtonScene.fieldDescriptor,
    TextScene.descriptor,
    VideoScene.descriptor,
]

/// The built-in scene called `name`, if any.
public func builtInScene(named name: String) -> SceneDescriptor? {
    builtInScenes.first { $0.name == name }
}
