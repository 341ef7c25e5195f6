struct Greeting {
    let text = "Hello"
}
