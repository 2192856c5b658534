// Subgraph nodes in the real editor window: they show their exposed ports, grouping asks which
// parameters to expose, and Ctrl+Shift+G ungroups the selected one in one undo step.
import QtQuick
import QtTest

TestCase {
    id: test
    name: "Subgraphs"
    when: windowShown

    property var window: null
    property var document: window ? window.graphDocument : null
    property var canvas: window ? window.graphCanvas : null

    function init() {
        const component = Qt.createComponent("qrc:/qt/qml/Isochron/Ui/qml/Main.qml")
        verify(component.status === Component.Ready, component.errorString())
        window = component.createObject(null, {width: 1400, height: 900})
        verify(window)
        window.openFile(sourceDirectory + "/samples/two-bands.isograph.json")
        waitForRendering(window.contentItem)
    }
    function cleanup() {
        document.newGraph()
        window.close()
        window.destroy()
        window = null
    }

    function test_subgraphNodeShowsExposedPorts() {
        const low = document.nodes.get("low")
        compare(low.inputs.length, 1)
        compare(low.inputs[0].name, "in")
        compare(low.inputs[0].type, "signal<f32>")
        compare(low.outputs.length, 1)
        compare(low.outputs[0].name, "events")
        compare(low.outputs[0].type, "time_range")
        verify(document.valid)
        const sizes = document.parametersOf("low").map(p => p.name)
        compare(sizes, ["band_high_hz", "band_low_hz", "q"])  // by name
    }

    function test_groupExposesTheCheckedParameters() {
        document.selection.selectNodes(["sweep", "low"])
        const dialog = findChild(window, "exposedParametersDialog")
        verify(dialog)
        dialog.file = temporaryDirectory + "/isochron-tst-subgraphs.isograph.json"
        dialog.choices = document.selectionParameters().map(name => ({name: name, exposed: name === "sweep.frequency"}))
        dialog.open()
        tryVerify(() => dialog.opened, 20000)
        dialog.accept()
        compare(document.nodeCount, 4)
        const id = "isochron-tst-subgraphs"
        compare(document.parametersOf(id).map(p => p.name), ["frequency"])
        compare(document.nodes.get(id).outputs.length, 2)
        verify(document.valid)
    }

    function test_ungroupWithKeysInOneUndoStep() {
        compare(document.nodeCount, 5)
        document.selection.selectNode("low")
        canvas.forceActiveFocus()
        keyClick(Qt.Key_G, Qt.ControlModifier | Qt.ShiftModifier)
        compare(document.nodeCount, 9)
        verify(document.nodes.get("band").nodeId === "band")
        compare(document.parametersOf("band").find(p => p.name === "band_low_hz").value, 1000)
        verify(document.valid)
        keyClick(Qt.Key_Z, Qt.ControlModifier)
        compare(document.nodeCount, 5)
        compare(document.selection.nodes, ["low"])
    }
}
